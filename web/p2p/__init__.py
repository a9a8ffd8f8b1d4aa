"""Private tables: friends play together over WebRTC, the host's page runs the game."""
