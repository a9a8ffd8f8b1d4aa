"""Dealing the unseen cards consistently with a seat's view (hearts.bots.sampling)."""

from __future__ import annotations

import random
from collections import Counter

from hearts import Card, Game, Phase, PlayerView
from hearts.bots.sampling import DealSampler
from hearts.cards import FULL_DECK_MASK, HEARTS_MASK, SUIT_MASKS, mask_of, parse_cards
from hearts.rules import POINT_CARDS_MASK


def random_views(seed: int, count: int) -> list[PlayerView]:
    """Views of every seat at random moments of seeded random games (passing included)."""
    rng = random.Random(seed)
    views: list[PlayerView] = []
    game = Game.new(seed)
    while len(views) < count:
        if game.phase is Phase.GAME_OVER:
            game = Game.new(rng.randrange(10**9))
        if game.phase is Phase.PASS:
            for seat in range(4):
                views.append(game.view(seat))
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
            continue
        for seat in range(4):
            views.append(game.view(seat))
        game.play(rng.choice(game.legal_plays()))
    return views


def check_deal(view: PlayerView, hands: list[int]) -> None:
    """Everything a consistent deal must satisfy."""
    seat = view.seat
    playing = view.phase is Phase.PLAY
    played = view.played_mask if playing else 0
    assert hands[seat] == view.hand_mask
    union = 0
    for s in range(4):
        assert not union & hands[s], "a card dealt twice"
        union |= hands[s]
        expected = view.hand_sizes[s] if playing else 13
        assert hands[s].bit_count() == expected
    assert union == FULL_DECK_MASK & ~played
    if playing:
        voids = view.voids()
        for s in range(4):
            assert not hands[s] & voids[s], f"seat {s} was dealt a suit it has shown void"
        if view.passed and view.pass_to is not None:
            still_there = mask_of(view.passed) & ~played
            assert hands[view.pass_to] & still_there == still_there


def test_deals_are_consistent_with_random_views() -> None:
    rng = random.Random(5)
    views = random_views(11, 1500)
    for view in views:
        sampler = DealSampler(view)
        assert sampler.exact, "a real game's view is always satisfiable"
        for _ in range(3):
            check_deal(view, sampler.sample(rng))


def test_sampling_is_reproducible_from_the_rng() -> None:
    view = random_views(3, 200)[-1]
    first = [DealSampler(view).sample(random.Random(9)) for _ in range(3)]
    again = [DealSampler(view).sample(random.Random(9)) for _ in range(3)]
    assert first == again


def test_passed_cards_stay_with_the_receiver() -> None:
    game = Game.new(4)  # hand 1: pass left
    mine = game.hand(0)[:3]
    game.choose_pass(0, mine)
    for seat in (1, 2, 3):
        game.choose_pass(seat, game.hand(seat)[:3])
    view = game.view(0)
    sampler = DealSampler(view)
    rng = random.Random(1)
    for _ in range(50):
        hands = sampler.sample(rng)
        assert hands[1] & mask_of(mine) == mask_of(mine)


def test_first_leader_holds_the_two_of_clubs() -> None:
    game = Game.new(8)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[-3:])
    leader = game.to_play
    assert leader is not None
    watcher = next(s for s in range(4) if s != leader)
    sampler = DealSampler(game.view(watcher))
    rng = random.Random(2)
    two = Card.parse("2C").mask
    for _ in range(30):
        assert sampler.sample(rng)[leader] & two


def test_a_point_card_discarded_on_the_first_trick_means_only_points() -> None:
    # West holds only hearts, so it may (must) discard one on the first trick.
    west = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    north = parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")
    south = parse_cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    east = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    game = Game.from_deal([south, west, north, east], history=[(0, 0, 13, 13)] * 3)
    for card in ("2C", "2S", "2D", "2H"):
        game.play(card)
    view = game.view(0)
    sampler = DealSampler(view)
    rng = random.Random(3)
    for _ in range(30):
        hands = sampler.sample(rng)
        assert hands[1] & ~POINT_CARDS_MASK == 0  # hearts and perhaps the Q♠
        assert hands[2] & SUIT_MASKS[0] == SUIT_MASKS[0] & ~Card.parse("2C").mask


def test_a_heart_led_before_hearts_broke_means_only_hearts() -> None:
    south = parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AH")
    west = parse_cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    north = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    east = parse_cards("AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    game = Game.from_deal([south, west, north, east], history=[(0, 0, 13, 13)] * 3)
    for card in ("2C", "2D", "2S", "AC", "2H"):  # East wins, then leads a heart unbroken
        game.play(card)
    view = game.view(0)
    assert not view.voids()[3]  # East has shown no void: only the unbroken lead tells
    sampler = DealSampler(view)
    rng = random.Random(1)
    for _ in range(20):
        hands = sampler.sample(rng)
        check_deal(view, hands)
        assert hands[3] == HEARTS_MASK & ~mask_of(parse_cards("2H AH"))


def test_unconstrained_sampling_is_uniform() -> None:
    # Right after the first trick with no voids shown, every unseen card is equally likely
    # to be in each other seat (each holds 12 of the 36 unseen cards).
    game = Game.from_deal([parse_cards("2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
                           parse_cards("3C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
                           parse_cards("4C AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"),
                           parse_cards("5C 6C 7C 8C 9C TC JC QC KC AC 2D KS AS")],
                          history=[(0, 0, 13, 13)] * 3)
    for card in ("2C", "3C", "4C", "5C"):
        game.play(card)
    view = game.view(1)
    sampler = DealSampler(view)
    rng = random.Random(4)
    counts: Counter[tuple[int, int]] = Counter()
    trials = 3000
    unseen = FULL_DECK_MASK & ~view.hand_mask & ~view.played_mask
    for _ in range(trials):
        hands = sampler.sample(rng)
        for seat in (0, 2, 3):
            for probe in (Card.parse("AD"), Card.parse("QS"), Card.parse("2S")):
                if hands[seat] & probe.mask:
                    counts[(seat, probe.index)] += 1
    assert unseen.bit_count() == 36
    for value in counts.values():
        assert abs(value / trials - 1 / 3) < 0.04


def test_void_split_follows_the_number_of_deals() -> None:
    # A seat void in a suit: that suit's unseen cards go to the two other seats, and the
    # chance of each card matches exact counting (by symmetry here, 1/2 each).
    views = [v for v in random_views(21, 4000)
             if v.phase is Phase.PLAY and any(v.voids()[s] for s in range(4) if s != v.seat)]
    assert views
    view = views[0]
    sampler = DealSampler(view)
    rng = random.Random(6)
    for _ in range(200):
        check_deal(view, sampler.sample(rng))
    for s in range(4):
        for suit in range(4):
            if view.voids()[s] & SUIT_MASKS[suit]:
                assert view.voids()[s] & SUIT_MASKS[suit] == SUIT_MASKS[suit]


def test_a_finished_game_view_raises_nothing() -> None:
    rng = random.Random(1)
    game = Game.new(3)
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, game.hand(seat)[:3])
        else:
            game.play(rng.choice(game.legal_plays()))
    for seat in range(4):
        hands = DealSampler(game.view(seat)).sample(rng)
        assert len(hands) == 4
