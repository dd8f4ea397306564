"""The policy-decision bench (`make bench`, bots section) measures what it says: every pass decides on
positions of its own, and it reports the ratio and the in-loop split of a decision. (The figures
themselves are the bench's to judge: no timing is asserted here.)"""

from __future__ import annotations

from workers.bots.policy_bench import decision_positions, measure


def test_positions_are_decisions_with_a_choice() -> None:
    positions = decision_positions("a_la_carte_cards", 50)
    assert len(positions) == 50
    assert all(len(legal) > 1 for _, legal in positions)
    assert len({view.SerializeToString() for view, _ in positions}) == 50  # no position twice


def test_measure_reports_the_ratio_and_the_split() -> None:
    m = measure("a_la_carte_cards", positions=40, passes=2)
    assert m["ratio"] == m["policy_decision_s"] / m["bare_onnxruntime_s"]
    for key in ("bare_onnxruntime_s", "policy_decision_s", "observation_s", "observation_in_loop_s",
                "inference_and_pick_in_loop_s"):
        assert m[key] > 0, key
