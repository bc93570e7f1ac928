# Yomi bridge for seigot/tetris: a drop-in game_manager/block_controller.py.
#
# At import it starts `yomi seigot controller` once (the binary is $YOMI_BIN,
# else `yomi` on PATH; extra arguments in $YOMI_ARGS, e.g. "--ai fast") and, on
# every GetNextMove, sends the GameStatus as one JSON line (the Python "class"
# objects dropped) and copies the one-line reply into nextMove["strategy"].
# Standard library only; it never touches numpy.random, so the game's random
# sequence is unchanged.
import atexit
import json
import os
import shlex
import shutil
import subprocess
import sys


class BridgeError(RuntimeError):
    """The Yomi controller is missing, died, or answered something unusable."""


def _plain(v):
    # GameStatus holds Shape objects under "class" and tuples: keep data only.
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if k != "class"}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return None


class Block_Controller(object):
    """Relays GetNextMove to a `yomi seigot controller` child process."""

    def __init__(self, binary=None, args=None):
        binary = binary or os.environ.get("YOMI_BIN") or shutil.which("yomi")
        if not binary or not (os.path.isfile(binary) or shutil.which(binary)):
            raise BridgeError("yomi binary not found: set YOMI_BIN to the path of the yomi "
                              "binary (go build -o yomi ./cmd/yomi) or put yomi on PATH")
        extra = shlex.split(os.environ.get("YOMI_ARGS", "")) if args is None else list(args)
        self.cmd = [binary, "seigot", "controller"] + extra
        try:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1)
        except OSError as e:
            raise BridgeError("cannot start %s: %s" % (" ".join(self.cmd), e))
        atexit.register(self.close)

    def _died(self):
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        err = self.proc.stderr.read() if self.proc.stderr else ""
        return BridgeError("yomi controller (%s) exited with code %s: %s"
                           % (" ".join(self.cmd), self.proc.returncode, err.strip()[-500:]))

    def GetNextMove(self, nextMove, GameStatus):
        line = json.dumps(_plain(GameStatus), separators=(",", ":"))
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            raise self._died()
        if not reply:
            raise self._died()
        try:
            move = json.loads(reply)
        except ValueError:
            raise BridgeError("yomi controller sent a line that is not JSON: %r" % reply[:200])
        if "error" in move:
            raise BridgeError("yomi controller rejected the GameStatus: %s" % move["error"])
        for key in ("direction", "x", "y_operation", "y_moveblocknum", "use_hold_function"):
            if key not in move:
                raise BridgeError("yomi controller reply lacks %r: %r" % (key, reply[:200]))
            nextMove["strategy"][key] = move[key]
        return nextMove

    def close(self):
        p = getattr(self, "proc", None)
        if p and p.poll() is None:
            try:
                p.stdin.close()
                p.wait(timeout=5)
            except Exception:
                p.kill()


BLOCK_CONTROLLER = Block_Controller()
