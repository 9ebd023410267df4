"""torch.random: the default CPU generator's seeding and state (torch/random.py)."""
from ._C import default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state  # noqa: F401

__all__ = ["default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]
