"""Writes (services) of the play app: games, the event log, orders (HackSoft style)."""
