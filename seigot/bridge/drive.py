# Test driver for the bridge (used by the Go test in cmd/yomi): reads one
# GameStatus JSON per stdin line, decorates it like the real game does
# (Shape objects under "class", tuples for direction_range), calls
# block_controller.BLOCK_CONTROLLER.GetNextMove and prints the strategy.
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Shape(object):
    def __init__(self, shape):
        self.shape = shape


def decorate(s):
    b = s["block_info"]
    infos = [b["currentShape"], b["nextShape"], b["holdShape"]] + list(b["nextShapeList"].values())
    for info in infos:
        info["class"] = Shape(info["index"]) if info["index"] is not None else None
        if info["direction_range"] is not None:
            info["direction_range"] = tuple(info["direction_range"])
    return s


try:
    from block_controller import BLOCK_CONTROLLER, BridgeError
except Exception as e:  # the Go test checks this message
    print(json.dumps({"import_error": str(e)}), flush=True)
    sys.exit(3)

for line in sys.stdin:
    status = decorate(json.loads(line))
    nextMove = {"strategy": {"direction": "none", "x": "none", "y_operation": "none",
                             "y_moveblocknum": "none", "use_hold_function": "n"},
                "option": {"reset_callback_function_addr": None, "reset_all_field": None,
                           "force_reset_field": None}}
    try:
        out = BLOCK_CONTROLLER.GetNextMove(nextMove, status)["strategy"]
    except BridgeError as e:
        out = {"bridge_error": str(e)}
    print(json.dumps(out), flush=True)
