# stikis messages for the Belote family (Bazar, French classic, head-to-head, Coinche),
# English. The game's own words stay as players say them: belote, rebelote, capot, coinche,
# surcoinche, contra, recontra, tierce.

belote-name-belote-bazar = Bazar belote
belote-name-belote-classic = French belote
belote-name-belote-h2h = Head-to-head belote
belote-name-coinche = Coinche
game-command-belote = Open a Belote table
game-command-coinche = Open a Coinche table

## Table message
belote-title = { $game } · deal { $deal } · dealer { $dealer }
belote-teams = Teams: { $first } against { $second }
belote-turned = Turned card: { $card }
belote-bids = Bids: { $bids }
belote-contract = Contract: { $contract } ({ $name })
belote-announced = Announced: { $list }
belote-trick = Trick { $n }: { $cards }
belote-last-trick = Last trick: { $cards } → { $name }
belote-tricks-taken = Tricks: { $list }
belote-score = Score: { $totals } (game to { $target })
belote-target = Game to { $target }
belote-turn = Turn: { $name }

## Hand
belote-hand = Your cards: { $cards }
belote-pick-level = Choose how high to bid, or a word.
belote-pick-level-tens = Choose how high to bid: the number is tens of points (8 · 80 promises at least 80 points, 9 · 90 at least 90, …); or a word.
belote-pick-trump = Bid { $level }: choose the trump (‹ to go back).
belote-level-closed = That level can no longer be bid.

## Bids and game words
belote-pass = Pass
belote-take = Take { $suit }
belote-contra = Contra
belote-recontra = Recontra
belote-coinche = Coinche
belote-surcoinche = Surcoinche
belote-capot = capot
belote-no-trumps = no trumps
belote-all-trumps = all trumps
belote-tierce = tierce
belote-fifty = fifty
belote-hundred = hundred
belote-four = four { $rank }
belote-belote = belote
belote-rebelote = rebelote

## Results
belote-redeal = Everybody passed: the next dealer deals again.
belote-made = The contract is made.
belote-failed = The contract fails.
belote-capot-taken = Capot: every trick to { $name }.
belote-rebelote-held = Belote-rebelote (the king and queen of trumps in one hand): { $name }, { $points }.
belote-deal-scores = This deal: { $list }
belote-team-result = { $name }: { $points ->
    [one] { $points } card point
   *[other] { $points } card points
}, { $combinations } for combinations and belote; scores { $score }
belote-winner = The game goes to { $name }.

# Why a bid is refused.
belote-bid-refused = That bid is not possible: { $why }.
belote-bid-rule-not-this-game = that is not a bid of this game
belote-bid-rule-nothing-to-double = there is no bid to double
belote-bid-rule-already-doubled = the bid is already doubled
belote-bid-rule-double-by-opponents-only = only an opponent of the last bid may double it
belote-bid-rule-redouble-needs-double = redoubling needs a double first
belote-bid-rule-redouble-by-bidders-only = only the bidding team may redouble
belote-bid-rule-no-all-trumps-in-bazar = Bazar belote has no all-trumps bid
belote-bid-rule-capot-above-2-5 = capot is bid only above 25
belote-bid-rule-coinche-above-1-6-0 = bids go up to 160, then capot
belote-bid-rule-no-bid-after-double = no new bid after a double
belote-bid-rule-below-minimum = bids start at 80 points
belote-bid-rule-above-maximum = that bid is above the highest bid
belote-bid-rule-not-higher = a bid must be higher than the last bid
belote-bid-rule-capot-only = after a capot bid only capot may be bid
belote-bid-rule-take-in-first-round = the turned card is taken only in the first round
belote-bid-rule-name-in-second-round = a suit is named only in the second round
