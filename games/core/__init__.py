"""What every engine shares: the Ruleset protocol, the seeded PRNG, canonical JSON, aliases."""
