"""The search player's tuning constants, each saying what was measured (docs/autoplay.md, "Search player")."""

MAX_CANDIDATES = 8
"""The most candidates one decision is searched over (the blueprint's among them): each costs a rollout per
future, and beyond a handful the budget spread over them tells them apart no better."""

MAX_WIDE = 12
"""The most candidates of a hint's decision: a step of a move has up to four ways and an end of the move."""

THREAT_WORRY = 20
"""Threat at a rollout's end worth naming as a cause (26 loses the game)."""

HINT_ITERATIONS = 60
"""A hint's rollouts when no budget is given: `burncycle-table hint` on a lobby position with five candidates
took 1.4-2.0 s, the command's start included, on this machine under a load of 10 (a Pi 4's core is slower:
give it --budget to cap the time)."""

WEIGHTS = (1.210, -0.015, 0.0, 0.0, 0.099, 0.0, 0.707, -2.267, -0.255, -0.322, 0.0, -1.640, -0.264)
"""The evaluation's weight of each feature (evaluation.FEATURES), for a logistic estimate of the chance to win:
fitted on 7,042 round starts of 900 heuristic games of the play of commit 87b535a (Data Heist, two players,
the three floors, seeds 5000-5299 each), the module's power and the live chips held at 0 (a negative
weight would have the search drain them; floors and escapes do not vary there: 0). The play had moved on since
the last fit (the labs' opener, zone door and keypad dice): on 4,695 round starts of seeds 5600-5799 the weights
before forecast 52% where 64% were won, off by 0.24 in a tenth (log loss 0.524; the labs alone 19% where 36%
were won), these 66%, within 0.06 in every tenth (0.466). With them the search won 178 of 200 lobby games
(seeds 1000-1199) against 176 with the weights before, and 83 of the labs' against 75 (docs/autoplay.md,
"What the search wins"). Threat counts twice: 0.099 a point and -0.264 a point squared over 26, so a point costs
more the later it comes (from threat 5 on); the floor's security level -1.64."""

BIAS = 0.190
"""The evaluation's constant term (with WEIGHTS)."""

MISSION_WEIGHTS: dict[str, tuple[float, tuple[float, ...]]] = {
    "tower-run": (-4.144, (1.540, 0.149, 1.924, 0.744, -0.199, 0.0, 0.445, -0.243, 0.028, 0.079, 0.0, 1.924,
                           -0.131)),
    "rescue-rangers": (-2.148, (3.448, -0.062, 0.0, 0.0, -0.071, 0.0, 0.713, -1.739, 0.081, -0.246, 0.0, 0.0,
                                -0.184)),
}
"""(BIAS, WEIGHTS) of the missions whose positions Data Heist's fit misreads, each fitted the same way on its own
heuristic games (two players, level 1 on the lobby: round starts of seeds 5000-5599; the module's power and the
live chips held at 0 as above). Data Heist's weights read the tower run's climb as a loss (its labs are a level 2
floor, -2.0, and the floor number, never varied in Data Heist, weighs 0) and forecast a chance of 41% where 15% of
its games are won, off by 0.62 in a tenth: on 2,283 round starts of seeds 5600-5799 their log loss was 0.694,
worse than forecasting the share won everywhere (0.416), and the tower run's own fit's 0.333 (within 0.07 in
every tenth; the floor and its level weigh +1.9 each). In Rescue Rangers the calibration is the mission's turn
(+3.4 against +0.9): on 2,600 round starts, 0.508 with Data Heist's (34% forecast where 5% are won) against 0.148
(within 0.09 in every tenth). The other Adaptable missions keep Data Heist's: their heuristic games are too
seldom won to fit on."""

ORACLE_HORIZON = 60
"""The oracle plays each candidate to the end of the game (no shipped mission's self-play ran past 55 rounds):
with the real dice one rollout is the candidate's whole future, so it wins whenever one step off the blueprint
wins, at any decision."""

BOOTH_ITERATIONS = 16
"""Rollouts a decision at the booth, and in the win-rate table of docs/autoplay.md: over the 80 games of that
table a searched decision took 0.35-0.64 s (median by setting) and 1.5-2.3 s (p99) on this machine while six
jobs shared its two cores (load 11-17); 32 rollouts with a 1.5 s cap took 0.74 s and 1.6 s
(bench/bench_search.py). 64 rollouts, raced, won 27 of 60 Data Heist games (seeds 1000-1019 on each floor)
where 16 (even, the old evaluation) won 28 and the heuristic 25, at four times the time (median 1.33 s,
p99 2.18 s at a load of 8)."""

MARGIN = 0.05
"""How much more often (in chance to win, over the same futures) another action must win than the blueprint's
to be played. With 0.02 and one standard error the round-horizon search left the blueprint too often for
network cards and reboots that pay within the round and lost at the end (two players on the lobby, seeds
1000-1009: 7 wins against the heuristic's 9; 0.05 and two standard errors, seeds 1000-1015: 9 against 13, with
reboots searched); 0.02 and one standard error with 64 rollouts, raced, on the refit evaluation: 28 of 60 Data
Heist games against the heuristic's 25 (seeds 1000-1019 on each floor), within the noise, leaving the
blueprint three times as often)."""

RACE_BATCH = 4
"""Futures a race plays every candidate still in it before dropping those that cannot reach the margin."""

NOISE = 2.0
"""Standard errors of the paired difference the margin adds (with MARGIN). A decision with a single future has
no standard error and keeps the blueprint's action: with 4 rollouts a decision (one future for most) the search
left it on one future's luck and won 4 of 10 lobby games (seeds 1000-1009) where 16 rollouts won 10.
Reading the noise as Student's t over the futures played (two futures' standard error is itself a guess: t
asks 14 of them where the normal asks 2) kept the blueprint more often and won no more: 123 of 200 lobby games
(seeds 1000-1199) against 131 with the normal's, the heuristic 125; the module was lost in 4 games against 5."""
