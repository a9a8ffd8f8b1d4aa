"""Tables with other people: the session and its sides (``session``, ``hosting``,
``joining``, the lobby, the fair tables' rooms and door) and the dialog (``dialog``)."""
