"""Fair tables: a deal no page can see or steer, and an audit of every hand.

Mental poker for Hearts, pure Python with no I/O (the network is someone else's job):

- ``group``: the commutative cipher (SRA / Pohlig–Hellman over a safe prime) and the cards
  as quadratic residues;
- ``proofs``: Schnorr and Chaum–Pedersen proofs that a page used its key, key unshown;
- ``transcript``: the public record every page keeps, checked as each message comes in;
- ``party``: one page's secrets and its part of each step;
- ``wire``: the messages as JSON text, read and checked on arrival;
- ``audit``: at the hand's end, every key is shown and the whole hand is checked again;
- ``public``: the game from the cards played (legal plays, scores), and ``steps``: the
  message a page owes the protocol now;
- ``hand`` and ``table``: one page's hand under way, and its table across hands, with
  ``inbox`` holding the messages that came before their turn;
- ``cheats``: the modified pages the tests catch;
- ``local``: four parties in one process (the tests and ``tools/bench_fair.py``).

The protocol, its message sequence and its threat model: ``docs/protocol.md``, "Fair tables".
"""
