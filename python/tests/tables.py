"""Every table the package plays: each preset at each of its seat counts."""

import pips

EVERY_TABLE = sorted({(v["id"], n) for v in pips.variants() for n in v["players"]})
