# Tournaments (Latvian format: rounds, big points, re-seating).
tournament-format-deals = { $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
} per table a round
tournament-format-turn = , { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
} a move
tournament-format-minutes = { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
} a round
tournament-registration = 🏆 Zole tournament: { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
}, { $format }. Entries are open: press Join.
tournament-commitment = Draw commitment (the SHA-256 of the seed that will seat round 1): { $commitment }
tournament-entered = Entered ({ $count }): { $names }
tournament-nobody = Nobody has entered yet.
tournament-created = { $name } opens a Zole tournament.
tournament-joined = { $name } has entered.
tournament-late = { $name } has entered and plays from the next round.
tournament-already-in = You have entered already.
tournament-name-taken = Somebody has entered under the name { $name } already.
tournament-left = { $name } has withdrawn.
tournament-left-mid-round = { $name } has withdrawn; a computer player finishes this round for them, and the round counts.
tournament-not-in = You have not entered.
tournament-too-few = A tournament needs at least 3 players; { $count ->
    [one] only { $count } has entered
   *[other] { $count } have entered
}.
tournament-exists = This chat has a tournament on already.
tournament-none = This chat has no tournament.
tournament-over = This tournament is over.
tournament-no-computers = This tournament is for people only.
tournament-admin-only = Only an admin of this chat or the tournament's organiser may do that.
tournament-started = The tournament begins with { $count } players. Draw seed: { $seed } (its SHA-256 is the commitment posted when entries opened; `stikis tournament verify FILE` checks the whole tournament).
tournament-round = Round { $round } of { $rounds }:
tournament-table-line = Table { $table }: { $names }
tournament-your-seat = Tournament round { $round }: you play at table { $table }, seat { $seat }. Your hand comes in a message of its own.
tournament-table-label = Round { $round }, table { $table }
tournament-table-done = Round { $round }, table { $table } has finished: { $totals }
tournament-standings = 🏆 Standings after round { $round } of { $rounds }
tournament-standings-none = 🏆 Standings: no round has finished yet
tournament-standing-line = { $rank }. { $name }: { $big ->
    [one] { $big } big point
   *[other] { $big } big points
}, { $pm } game points, { $played ->
    [one] { $played } round
   *[other] { $played } rounds
}
tournament-withdrawn = (withdrawn)
tournament-paused = { $name } has paused the tournament: the next round waits until it is resumed.
tournament-resumed = { $name } has resumed the tournament.
tournament-not-paused = The tournament is not paused.
tournament-cancelled = { $name } has cancelled the tournament; the standings stay as they were after the last whole round.
tournament-finished = 🏆 The tournament is over. Final standings:
tournament-no-round = The tournament has no finished round yet.
tournament-running = The tournament has started already.
tournament-bad-options = A tournament is opened as /tournament [rounds] [deals per round] [preset] [bots], e.g. /tournament 3 24 lv; /tournament [rounds] [minutes]m for timed rounds; add e.g. 90s for 90 seconds a move.
button-pause = Pause
button-resume = Resume
button-cancel = Cancel
# The tournament message's first line once entries have closed: the title and its state.
tournament-title = 🏆 Zole tournament: { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
}, { $format }.
tournament-state-round = Round { $round } of { $rounds } is on.
tournament-state-paused = Round { $round } of { $rounds }; paused: the next round waits until it is resumed.
tournament-state-finished = The tournament is over.
tournament-state-cancelled = The tournament was cancelled.
