"""The compiled chrF counting (chrf_kernel) against Counters, numpy's counting and itself run
as plain Python (numba switched off, as where numba is missing).

sacreBLEU's rows from the whole extraction, which uses these kernels, are pinned in
test_chrf_native; here the kernels alone, on sources numpy's counting handles in every way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from mtgui.engine.metrics.chrf import kernel as chrf_kernel
from mtgui.engine.metrics.chrf.counts import clipped_matches as numpy_matches
from mtgui.engine.metrics.chrf.kernel import clipped_matches, kernel_matches
from mtgui.engine.metrics.chrf.symbols import Symbols
from mtgui.engine.runtime.compiled import COMPILED


def counter_matches(sources: list[Symbols], max_order: int) -> np.ndarray:
    """Clipped matches with Counters, as sacreBLEU counts them."""
    hyp, refs = sources[0], sources[1:]
    result = np.zeros((len(refs), hyp.size, max_order), dtype=np.int64)
    for i in range(hyp.size):
        h = hyp.values[hyp.offsets[i] : hyp.offsets[i + 1]].tolist()
        for r, ref in enumerate(refs):
            t = ref.values[ref.offsets[i] : ref.offsets[i + 1]].tolist()
            for n in range(1, max_order + 1):
                hc = Counter(tuple(h[k : k + n]) for k in range(len(h) - n + 1))
                rc = Counter(tuple(t[k : k + n]) for k in range(len(t) - n + 1))
                result[r, i, n - 1] = sum((hc & rc).values())
    return result


def random_sources(
    seed: int, alphabet: int, references: int, segments: int = 200, palette: int = 3
) -> list[Symbols]:
    """A hypothesis and references whose segments draw from a few symbols each (so that long
    n-grams repeat and match), some empty."""
    rng = np.random.default_rng(seed)
    palettes = rng.integers(0, alphabet, (segments, palette))

    def source() -> Symbols:
        lengths = rng.integers(0, 14, segments)
        segment = np.repeat(np.arange(segments), lengths)
        symbols = palettes[segment, rng.integers(0, palette, len(segment))]
        return Symbols.from_lengths(symbols.astype(np.int64), lengths)

    return [source() for _ in range(references + 1)]


@pytest.mark.parametrize("references", [1, 2, 4])
@pytest.mark.parametrize("alphabet", [2, 300, 100_000])
def test_the_kernels_count_as_counters_and_numpy_do(references, alphabet):
    sources = random_sources(alphabet + references, alphabet, references)
    for max_order in (1, 2, 6, 9):
        expected = counter_matches(sources, max_order)
        assert np.array_equal(numpy_matches(sources, max_order, alphabet), expected)
        assert np.array_equal(kernel_matches(sources, max_order, alphabet), expected)


def test_keys_that_do_not_fit_are_left_to_numpy():
    # 13 distinct symbols in a segment take 4 bits: 16 orders of them and more do not fit
    sources = random_sources(5, 1000, 2, segments=30, palette=13)
    assert kernel_matches(sources, 16, 1000) is None
    assert np.array_equal(clipped_matches(sources, 16, 1000), counter_matches(sources, 16))


def test_empty_chunks_and_no_references():
    empty = Symbols.from_lengths(np.zeros(0, dtype=np.int64), np.zeros(3, dtype=np.int64))
    one = Symbols.from_lengths(np.array([1, 2], dtype=np.int64), np.array([2, 0, 0]))
    assert kernel_matches([empty, empty], 6, 5).tolist() == [[[0] * 6] * 3]
    assert kernel_matches([one], 6, 5).shape == (0, 3, 6)
    assert kernel_matches([one, one], 2, 5)[0].tolist() == [[2, 1], [0, 0], [0, 0]]


def test_symbols_outside_the_alphabet_are_refused():
    """The kernels index a table with the symbols, unchecked: they are checked first."""
    one = Symbols.from_lengths(np.array([5], dtype=np.int64), np.array([1]))
    with pytest.raises(ValueError, match="from 0 to 4"):
        kernel_matches([one, one], 2, 5)


def test_the_symbol_table_is_left_zeroed_for_the_next_chunk():
    sources = random_sources(1, 50, 3)
    kernel_matches(sources, 4, 50)
    assert not chrf_kernel._zeroed_table(50).any()
    assert np.array_equal(kernel_matches(sources, 4, 50), counter_matches(sources, 4))


def test_a_small_test_set_is_counted_without_loading_numba():
    """Loading numba and the kernels costs more than numpy's counting of a small set."""
    script = (
        "import sys\n"
        "from mtgui.engine.metrics.chrf.extract import iter_references, iter_rows\n"
        "from mtgui.engine.core.running import run_to_end\n"
        "prepared = run_to_end(iter_references([['a cat', 'the dog']], with_words=True))\n"
        "rows = run_to_end(iter_rows(prepared, ['a cat', 'a dog'], 6, 2, 2))\n"
        "print(rows[0, 2], 'numba' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["4.0", "False"]


_PLAIN_PYTHON = """
import json, sys
import numpy as np
from mtgui.engine.runtime import compiled
from mtgui.engine.metrics.chrf.kernel import kernel_matches
from mtgui.engine.metrics.chrf.symbols import Symbols
assert compiled.COMPILED == (sys.argv[1] == "compiled")
sources = [Symbols.from_lengths(np.array(v, dtype=np.int64), np.array(n, dtype=np.int64))
           for v, n in json.loads(sys.argv[2])]
print(json.dumps(kernel_matches(sources, 5, 40).tolist()))
"""


@pytest.mark.skipif(not COMPILED, reason="numba is not installed: the kernels are plain Python")
def test_compiled_and_plain_python_kernels_agree():
    """Where numba is missing the kernels run as the same code in Python: same numbers."""
    sources = random_sources(7, 40, 3, segments=25)
    given = json.dumps([[s.values.tolist(), s.lengths.tolist()] for s in sources])
    results = {}
    for mode, switch in (("compiled", "0"), ("python", "1")):
        env = {**os.environ, "NUMBA_DISABLE_JIT": switch}
        run = subprocess.run(
            [sys.executable, "-c", _PLAIN_PYTHON, mode, given],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        results[mode] = json.loads(run.stdout)
    assert results["compiled"] == results["python"] == counter_matches(sources, 5).tolist()
