"""What pages say to each other: the WebRTC transport (``peer``), a friends' table whose
host's page runs the game (``host``, ``guest``, ``protocol``, codes), and the fair deal
(``fair``)."""
