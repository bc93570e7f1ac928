// codevs_peers_test.go plays the contest's public AIs, built outside the repository by
// scripts/peers/*.sh, through `yomi codevs match`: one pair each against the dummy, to show
// that each peer speaks the protocol as our referee does. A peer that is not built is skipped
// with the reason; none of their code or binaries is in this repository.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// peersDir is where scripts/peers/*.sh put their builds: $YOMI_PEERS, else their default.
func peersDir() string {
	if d := os.Getenv("YOMI_PEERS"); d != "" {
		return d
	}
	return "/work/peers"
}

func TestCodevsPeers(t *testing.T) {
	dummy := selfCmd(t, "codevs dummy")
	cases := []struct {
		peer, bin, name string // script name, file under peersDir()/peer, name it reports
		timeMs          int    // its clock per game: short where its search follows the clock
		slow            bool   // needs minutes: played only with YOMI_PEERS_SLOW=1
	}{
		// tanzaku drops to 1 s searches below 30 s left; togatoga to its smallest beams.
		{"tanzaku", "test-ai", "test-best-ai", 20000, false},
		{"togatoga", "togatog_ai", "togatog_ai_4.0", 20000, false},
		// kera times its turns by the wall clock, not by what is left (turn 0 alone takes
		// 10+ s), and runs out of time at 20 s and at 60 s: it plays only the contest's 180 s.
		{"kera", "kera", "kera", 180000, true},
	}
	for _, c := range cases {
		t.Run(c.peer, func(t *testing.T) {
			bin := filepath.Join(peersDir(), c.peer, c.bin)
			if _, err := os.Stat(bin); err != nil {
				t.Skipf("%s is not built (%v): run scripts/peers/%s.sh, or set YOMI_PEERS to the directory holding %s/%s", c.peer, err, c.peer, c.peer, c.bin)
			}
			if c.slow && os.Getenv("YOMI_PEERS_SLOW") != "1" {
				t.Skipf("%s needs the contest clock, up to 6 minutes a pair; set YOMI_PEERS_SLOW=1 to play it", c.peer)
			}
			results := filepath.Join(t.TempDir(), "results.jsonl")
			code, out, errs := runWithin(t, time.Duration(2*c.timeMs+60000)*time.Millisecond,
				"codevs", "match", "--p1", "'"+bin+"'", "--p2", dummy, "--games", "1", "--seed", "1",
				"--time-ms", strconv.Itoa(c.timeMs), "--quiet", "--results", results)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errs)
			}
			games := readResults(t, results)
			if len(games) != 2 {
				t.Fatalf("%d result lines, want 2", len(games))
			}
			for i, g := range games {
				peer := i // the peer is player 1 in game 0, player 2 in game 1
				if g.Info.Names[peer] != c.name || g.Info.Faults[0] != "" || g.Info.Faults[1] != "" {
					t.Errorf("game %d: names %q faults %q (%s)", i, g.Info.Names, g.Info.Faults, g.Reason)
				}
				// The dummy drops at random: a peer that understood the game wins.
				if g.Result != "win" || g.Info.Turns < 5 {
					t.Errorf("game %d: %s after %d turns (%s)", i, g.Result, g.Info.Turns, g.Info.Reason)
				}
				t.Logf("game %d: %s in %d turns, %s used %d ms of %d", i, g.Result, g.Info.Turns, c.peer, g.Info.TimeMs[peer], c.timeMs)
			}
		})
	}
}

// peerGame is the part of a `codevs match` result line these tests read.
type peerGame struct {
	Result string `json:"result"`
	Reason string `json:"reason"`
	Info   struct {
		Turns  int       `json:"turns"`
		Names  [2]string `json:"names"`
		Faults [2]string `json:"faults"`
		TimeMs [2]int    `json:"time_ms"`
		Reason string    `json:"reason"`
	} `json:"info"`
}

func readResults(t *testing.T, path string) []peerGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []peerGame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var g peerGame
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}
