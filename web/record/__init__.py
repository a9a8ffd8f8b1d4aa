"""The daily deal, game codes and the person's record of finished games (with its chart)."""
