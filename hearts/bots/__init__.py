"""Computer players (easy / normal / hard) and the hint advisor.

Every player sees only a ``PlayerView``. ``make(level, seed)`` builds one.
"""
