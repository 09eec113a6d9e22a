"""`python -m depot`: print a parcel's label lines from the command line."""

import sys

from depot.shipping.labels import label_lines
from depot.shipping.parcel import Parcel


def main(argv: list[str]) -> int:
    """Label lines for `LENGTH WIDTH HEIGHT GRAMS` (centimetres and grams)."""
    if len(argv) != 4:
        print("usage: python -m depot LENGTH_CM WIDTH_CM HEIGHT_CM CONTENT_GRAMS", file=sys.stderr)
        return 2
    length, width, height, grams = (float(value) for value in argv)
    for line in label_lines(Parcel(length, width, height, content_g=grams), "DEPOT-1"):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
