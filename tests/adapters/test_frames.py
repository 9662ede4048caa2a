"""The sweeper's frames: an object of a shared type that went in the frame before goes again as
its number, and the reader gives back the very object it read then."""

from __future__ import annotations

import io
import pickle
from dataclasses import dataclass, replace
from typing import cast

import pytest

from paw.cli.sweep_child import FrameReader, FrameWriter


@dataclass(frozen=True, slots=True)
class View:
    name: str
    note: str = "x" * 200


def frames(*messages: tuple[object, ...]) -> tuple[list[int], io.BytesIO]:
    """Write ``messages`` with one writer; the size of each frame, and the stream."""
    out = io.BytesIO()
    writer = FrameWriter(out, shared=(View,))
    sizes = []
    for message in messages:
        before = out.tell()
        writer.write(message)
        sizes.append(out.tell() - before)
    out.seek(0)
    return sizes, out


def views_of(message: tuple[object, ...] | None) -> tuple[View, ...]:
    assert message is not None
    assert message[0] in ("pushed", "p")
    return cast("tuple[View, ...]", message[1])


def test_an_object_sent_before_goes_as_its_number_and_comes_back_the_same_object() -> None:
    views = tuple(View(f"a{k}") for k in range(50))
    sizes, out = frames(("pushed", views), ("pushed", views), ("pushed", (*views[:49], View("b"))))
    assert sizes[1] < sizes[0] / 5  # 50 numbers, not 50 views
    assert sizes[0] / 50 < sizes[2] < sizes[0] / 2  # one view is new
    reader = FrameReader(out)
    first, second, third = (views_of(reader.read()) for _ in range(3))
    assert first == second == views
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert third[:49] == views[:49]
    assert third[49] == View("b")
    assert third[0] is first[0]
    assert reader.read() is None


def test_only_the_last_frame_is_remembered_and_equal_is_not_the_same() -> None:
    one, other = View("a"), View("b")
    twin = replace(one)  # equal, another object: sent whole
    sizes, out = frames(("p", (one,)), ("p", (other,)), ("p", (one,)), ("p", (twin,)))
    assert sizes[2] == sizes[0]  # ``one`` was not in the frame before: whole again
    assert sizes[3] == sizes[0]
    reader = FrameReader(out)
    read = [views_of(reader.read())[0] for _ in sizes]
    assert read == [one, other, one, twin]
    assert read[2] is not read[0]


def test_a_frame_naming_an_object_never_sent_is_refused() -> None:
    views = (View("a"),)
    _, out = frames(("p", views), ("p", views))
    stream = io.BytesIO(out.getvalue())
    FrameReader(stream).read()  # a reader that read the first frame...
    with pytest.raises(pickle.UnpicklingError, match="never sent"):
        FrameReader(stream).read()  # ...another one, reading the second, does not know it


def test_a_write_that_fails_keeps_what_the_reader_knows() -> None:
    class Unpicklable:
        def __reduce__(self) -> str:
            raise pickle.PicklingError("no")

    out = io.BytesIO()
    writer = FrameWriter(out, shared=(View,))
    view = View("a")
    writer.write(("p", (view,)))
    with pytest.raises(pickle.PicklingError):
        writer.write(("p", (View("b"),), Unpicklable()))
    writer.write(("p", (view,)))  # still known to the reader: the failed frame never went
    out.seek(0)
    reader = FrameReader(out)
    assert reader.read() == ("p", (view,)) == reader.read()
