"""The hard player frozen as of commit c375d94 (see ``tools.baselines``); do not edit."""
