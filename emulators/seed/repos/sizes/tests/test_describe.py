import pytest

from sizes import describe, describe_file


def test_bytes_and_kilobytes() -> None:
    assert describe(1) == "1 Byte"
    assert describe(3000) == "3.0 kB"


def test_negative_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        describe(-1)


def test_describe_file_reads_the_size(mocker) -> None:
    getsize = mocker.patch("sizes.describe.os.path.getsize", return_value=2_500_000)
    assert describe_file("big.bin") == "2.5 MB"
    getsize.assert_called_once_with("big.bin")
