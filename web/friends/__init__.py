"""Private tables: the session (``session``, ``hosting``, ``joining``), WebRTC (``peer``) and
the "Play with friends" dialog (``dialog``)."""
