# stikis messages, English. Game words stay Latvian where they are the real names:
# lielais, zole, mazā zole, pule, galdiņš.

lang-name = English

## Lobby and table
table-created = { $name } opened a table of { $game }. Press “Join” to take a seat.
table-exists = This chat already has an open table.
table-joined = { $name } sits down at seat { $seat }.
table-left = { $name } left the table.
table-seat-full = That seat is already taken.
table-full = The table is full.
table-full-add-seat = { $name } would like to play, but the table is full: press “{ $what }” under it to take one more seat.
table-full-later = { $name } would like to play, but the table is full. After this game, a table for more players: { $list }
lobby-other-sizes = For another number of players: { $list }
table-already-seated = You already sit at this table.
table-not-seated = You do not sit at this table.
table-bot-added = A computer player takes seat { $seat }.
table-bot-removed = The computer player left seat { $seat }.
table-started = The game of { $game } begins.
table-stopped = { $name } stopped the game.
table-finished = The game is over.
table-not-allowed = Only the table's creator or an admin may do that.
admin-check-failed = Could not check just now whether you administer this group: nothing was changed. Please try again in a moment.
table-none = There is no open table in this chat.
table-waiting = Waiting for { $count ->
    [one] one more player
   *[other] { $count } more players
}.

## Turns and buttons
turn-yours = Your turn.
turn-not-yours = It is not your turn.
turn-warning = { $name }, { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
} left for your move.
turn-timeout = { $name } ran out of time; a computer player moved instead.
turn-away = { $name } is away; a computer player plays the seat until “I'm back”.
button-back = I'm back
button-stale = That button is out of date; use the newest message.
button-bad = That button is not valid.
button-join = Join
button-leave = Leave
button-start = Start
button-add-bot = Add computer player
button-add-seat = ➕ Seat { $seat }
not-at-table = You are not playing at this table.

## Deals
deal-started = { $game ->
    [polt] Hand
   *[other] Deal
} { $deal } begins.
deal-commitment = The seed's commitment (SHA-256): { $commitment }
deal-seed = Seed: { $seed } (to check it, save the game record with /record and run “stikis replay FILE”: it deals the cards again from each seed and checks every move).
record-carried-pules = This table went on from the chat's score sheet with open pules (common: { $common }, personal: { $personal }, tree branches: { $tree }). A record has no place for them, so “stikis replay” scores it from an empty sheet.
deal-result-header = Result of { $game ->
    [polt] hand
   *[other] deal
} { $deal }
deal-declarer = Declarer: { $name }, { $contract }
deal-all-passed = Everybody passed.
deal-points = { $name }: { $points ->
    [one] { $points } card point
   *[other] { $points } card points
}
deal-tricks = { $name }: { $tricks ->
    [one] { $tricks } trick
   *[other] { $tricks } tricks
}
deal-totals = Totals: { $totals }

## Contracts and game words (Latvian names, as players say them)
contract-take = take (lielais)
contract-zole = zole
contract-small-zole = small zole (mazā zole)
contract-galdins = galdiņš (the little table)
contract-pule = pule
word-lielais = lielais
word-pule = pule
word-pules = pules
word-galdins = galdiņš
pule-written = A pule is written for { $name }.
pule-removed = { $name } removes a pule.
pules-open = Open pules: { $count }

## Settings
settings-turn-limit = Time per move: { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}
settings-turn-limit-off = Time per move: no limit
settings-auto-start = Start automatically when the table is full: { $value }
settings-lang = Language: { $lang }

## Zole table and hand
zole-title = Zole · deal { $deal } · dealer { $dealer }
zole-sitting-out = Sitting out: { $names }
zole-bids = Bids: { $bids }
zole-contract = Contract: { $contract }, declarer { $name }
zole-trick = Trick { $n }: { $cards }
zole-last-trick = Last trick: { $cards }
zole-tricks-taken = Tricks: { $list }
zole-turn = Turn: { $name }
zole-hand = Your cards: { $cards }
zole-buried = Buried: { $cards }
zole-you-sit-out = You sit this deal out.
zole-bury-pick = Choose two cards to bury.
zole-bury-picked = Chosen: { $cards }; choose one more (press it again to undo).
zole-surrendered = The declarer surrendered.
zole-tie = 60–60: a tie. A branch is added to the tree.
zole-seat-result = { $name }: { $points ->
    [one] { $points } card point
   *[other] { $points } card points
}, { $tricks ->
    [one] { $tricks } trick
   *[other] { $tricks } tricks
}
zole-talon = Talon: { $cards }
zole-pules = Pules: { $common } common{ $personal ->
    [none] {""}
   *[other] , personal: { $personal }
}
zole-tree = Tree branches: { $branches }
button-pass = Pass
button-take = Take (lielais)
button-zole = Zole
button-small-zole = Small zole (mazā zole)
button-surrender = Surrender

## Score sheets
sheet-closed = The score sheet is closed. Final standings: { $totals }
sheet-none = This chat has no open score sheet.
sheet-table-open = Stop the table first, then close the score sheet.

## Leaderboards and statistics
top-line = { $rank }. { $name } { $points } ({ $deals ->
    [one] one deal
   *[other] { $deals } deals
})
top-none = No games have been counted here yet.
stats-line = { $game }: { $points ->
    [one] { $points } point
   *[other] { $points } points
}, { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
}, { $wins } won as declarer
stats-pules = , pules written { $written }, removed { $removed }
stats-none = { $name } has no games counted here yet.

# Refused moves: one sentence about the presser's own hand, never a seat number.
refusal-over = That deal is over; use the buttons of your newest hand.
refusal-bidding-on = The bidding is still on: cards are played once it is over.
refusal-play-on = The bidding is over: play a card.
refusal-bury-first = The declarer buries two cards first; then the play begins.
refusal-not-now = That button belongs to another moment of the game; use your newest hand.
refusal-not-held = You do not hold { $card }.
refusal-must-follow = You must follow suit: you hold { $card }.
refusal-must-beat = You must play higher in the suit led: you hold { $card }.
refusal-must-trump = You must play a trump: you hold { $card }.
refusal-bid = That bid is not possible now; choose one of the buttons.
refusal-bury = Bury two different cards of your hand.
refusal-surrender = You cannot surrender now.
refusal-must-return = You must give back { $card }.

## Game names, computer players, a lobby after the start
game-name-zole = Zole
game-name-polt = Polt to Tzar
game-command-zole = Open a Zole table
computer-name = Computer { $seat }
lobby-started = { $game }: the game has started.
table-running = The game is already on: nothing to start.

## Zole results, explained
zole-last-trick-won = Last trick: { $cards }; { $name } took it.
zole-galdins-lost = Galdiņš (the little table: everybody passed, each plays for himself). { $names } lost: { $why }.
zole-galdins-nobody = Galdiņš (the little table: everybody passed, each plays for himself): a tie for the most tricks and card points, so nobody pays.
zole-galdins-why-tricks = the most tricks taken (ties go by card points)
zole-galdins-why-points = the most card points taken
zole-declarer-won = { $name } won the { $contract } with { $points ->
    [one] { $points } card point
   *[other] { $points } card points
} (61 or more wins).
zole-declarer-lost = { $name } lost the { $contract } with { $points ->
    [one] { $points } card point
   *[other] { $points } card points
} (61 or more was needed).
zole-small-won = { $name } won the { $contract }: no trick taken.
zole-small-lost = { $name } lost the { $contract }: a trick was taken.
zole-talon-picked-up = Talon picked up by { $name }: { $cards }
zole-buried-by = Buried by { $name }: { $cards }
zole-talon-untouched = Talon (not picked up): { $cards }
zole-deal-points = This deal: { $list }
zole-score-why = { $band ->
    [jani-won] Jaņi (schneider): 91 card points or more.
    [bezstikis-won] Bezstiķis: the opponents took no trick.
    [all-won] All 120 card points.
    [jani-lost] Lost in jaņi (schneider): { $limit } card points or fewer.
    [bezstikis-lost] Bezstiķis: the declarer took no trick.
    [none-lost] Not a single card point.
    [surrender] A surrender scores the contract's basic loss.
    [small] Small zole.
    [plain-won] A plain win.
   *[plain-lost] A plain loss.
} { $won ->
    [yes] Each opponent pays the declarer { $unit }.
   *[no] The declarer pays each opponent { $unit }.
}
zole-pule-bonus = { $name } removes a common pule: each other player pays { $name } 1 more.
zole-pule-own-removed = { $name } removes his own personal pule (nothing is paid for it).
zole-pule-personal-paid = { $name } removes { $owner }'s personal pule: { $owner } pays { $name } { $points }.
zole-pule-personal-written = A personal pule is written for { $name } (a lost take while pules are open).
zole-tree-paid = The tree pays out: each winner gets { $branches } from each loser.
