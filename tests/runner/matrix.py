"""matrix.py - read the QEMU configurations to boot (tests/matrix.txt).

One configuration a line: a unique name, then make variables, e.g.

    aarch64-16K-order13  ARCH=aarch64 PAGE_SIZE=16K MAX_PAGE_ORDER=13 QEMU_EXTRA="-cpu max"

Words are split as a shell would (quote values with spaces); "#" starts a
comment. The variables go to make unchanged, so a configuration is built
and booted exactly as `make run` with the same variables would.
"""

import re
import shlex
from dataclasses import dataclass

# The make variables a configuration may set; anything else is a typo.
VARIABLES = ("ARCH", "PAGE_SIZE", "MAX_PAGE_ORDER", "FAULT", "BOOT", "MEM",
             "SMP", "QEMU_EXTRA", "TIMEOUT", "HANDOFF_TIMEOUT", "NR_CPUS",
             "BOOT_HART",
             "LOTTERY", "SLAB_DEBUG", "SPINLOCK_WAIT", "EXPECT_CPUS",
             "EXPECT_NUMA", "BOARD", "EARLYCON")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*$")


class MatrixError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    name: str
    variables: tuple[tuple[str, str], ...]

    def make_args(self) -> list[str]:
        return [f"{key}={value}" for key, value in self.variables]



def parse_line(text: str, where: str) -> Config | None:
    """Return the Config on one matrix line, None for a blank or comment
    line; raise MatrixError saying what is wrong and where."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError as err:
        raise MatrixError(f"{where}: {err}") from None
    if not words:
        return None
    name, *assignments = words
    if not _NAME.match(name) or "=" in name:
        raise MatrixError(f"{where}: '{name}' is not a configuration name "
                          "(letters, digits, '.', '_', '+', '-')")
    variables = {}
    for word in assignments:
        key, eq, value = word.partition("=")
        if not eq or key not in VARIABLES:
            raise MatrixError(f"{where}: '{word}' is not one of "
                              f"{', '.join(VARIABLES)} =value")
        if key in variables:
            raise MatrixError(f"{where}: {key} is set twice")
        variables[key] = value
    if "ARCH" not in variables:
        raise MatrixError(f"{where}: {name} has no ARCH=")
    return Config(name, tuple(variables.items()))


def read(path: str) -> list[Config]:
    """Return the configurations in a matrix file, refusing duplicates."""
    configs: list[Config] = []
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            config = parse_line(text, f"{path}:{number}")
            if config is None:
                continue
            if any(c.name == config.name for c in configs):
                raise MatrixError(f"{path}:{number}: {config.name} "
                                  "appears twice")
            configs.append(config)
    return configs
