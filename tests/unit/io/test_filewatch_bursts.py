"""``io.filewatch.changes`` under saves that never pause (issue 30's concurrent edits).

Found by tests/integration/test_dev_local_concurrent.py: four writers saving DIR's
files every 10-80 ms for 8 s, and ``dev --local`` reconciled nothing until they stopped
(0 of 80 reconciles before the stop; 359 of 509 with the fix): a batch waited for
``settle`` seconds without an event, which never came. A batch is now yielded at most
``max_wait`` seconds after its first event.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from kubectl_crd.io.filewatch import changes

#: how long the writers would go on: the test stops them after its third batch (~2 s), so
#: a long time costs nothing when it passes, and a loaded machine has room to arm the
#: observer and deliver three batches before the writers would stop
WRITING = 30.0


def test_batches_are_yielded_while_saves_go_on(tmp_path: Path) -> None:
    stop = threading.Event()
    done = threading.Event()

    def save(index: int) -> None:
        rng = random.Random(index)
        count = 0
        while not done.is_set():
            count += 1
            (tmp_path / f"f{index}-{count % 5}.yaml").write_text(f"n: {count}\n")
            time.sleep(rng.uniform(0.002, 0.01))  # far more often than settle (0.1 s)

    writers = [threading.Thread(target=save, args=(i,), daemon=True) for i in range(4)]
    arrived: list[float] = []
    started = time.monotonic()
    stream = changes([str(tmp_path)], settle=0.1, max_wait=0.5, stop=stop)
    timers = [
        threading.Timer(WRITING, done.set),
        threading.Timer(WRITING + 2, stop.set),  # the stream ends even if starved
    ]
    try:
        for writer in writers:
            writer.start()
        for timer in timers:
            timer.daemon = True
            timer.start()
        for batch in stream:
            assert batch and all(path.endswith(".yaml") for path in batch)
            arrived.append(time.monotonic() - started)
            if len(arrived) == 3:
                break
    finally:
        done.set()
        stop.set()
        for timer in timers:
            timer.cancel()
        for writer in writers:
            writer.join(5)
    # three batches while the writers never paused; without the cap the first came only
    # once they stopped (6.1 s when they wrote for 6 s)
    assert len(arrived) == 3 and arrived[-1] < WRITING - 1, arrived
