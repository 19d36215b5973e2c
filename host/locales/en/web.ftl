# The web face (host/src/web).
web-home = Each community's pages open from a link its chat is given: ask the bot with /web.
web-not-found-title = Not found
web-not-found = There is no such page. The link may be old: a community's admin can replace it with /web new, and then the chat has the new one (/web).
web-bad-request-title = Bad address
web-bad-request = The address asks for something this site cannot read (a setting given twice, say). Open the link the chat gave (/web).
web-unavailable = The database does not answer just now. Try again in a few seconds.
web-boards = Boards
web-period-day = Today
web-period-week = This week
web-period-month = This month
web-period-season = Season { $n }
web-period-all = All time
web-points = { $game }: points
web-ratings = { $game }: ratings
web-col-player = Player
web-col-points = Points
web-col-deals = Deals
web-col-rating = Rating
web-col-games = Games
web-no-boards = No deal was finished here in this period.
web-games = Latest games
web-no-games = No game has been finished here yet.
web-game-line = { $game }, { $date } { $time } UTC: { $players } ({ $deals ->
    [one] 1 deal
   *[other] { $deals } deals
})
web-deal = Deal { $n }
web-dealer = Dealer: { $name }
web-prev = ◀ Back
web-next = Next ▶
web-keys = Keys: ← and → step through the deal, Home and End jump to its start and end.
web-step-dealt = The cards as dealt.
web-act-play = { $name } plays { $card }.
web-act-bid = { $name } bids: { $what }.
web-act-other = { $name }: { $what }.
web-act-bury = { $name } buries { $cards }.
web-act-surrender = { $name } surrenders.
web-act-give = { $name } gives { $card }.
web-act-return = { $name } returns { $card }.
web-act-trump = { $name } names trumps: { $suit }.
web-talon = Talon
web-talon-taken = { $name } picked up the talon.
web-buried = Buried by { $name }
web-turned = Turned card
web-sits-out = sits this deal out
web-told = How the deal went
web-trick-won = { $name } takes the trick.
web-trumps = Trumps have a gold frame; the card that takes the trick, a green one with ✔.
web-seed = Seed
web-commitment = Commitment (SHA-256 of the seed, posted before the deal)
web-checked = Checked: the seed deals exactly these cards, and every move is legal.
web-check-failed = The record does not check: { $reason }
web-replay = Check it yourself with the record:
web-download = Download the record
web-score = Score
web-contract = Contract
web-declarer = Declarer
web-contract-tie = 60–60 tie
web-contract-redeal = all passed
web-surrendered = surrendered
web-col-pules = Pules
web-pules-common = common { $n }
web-totals = Totals
web-no-deals = No deal of this game was finished.
# In chat.
web-off = This bot has no web pages (its operator starts it with --web-listen and --web-url).
web-link = This community's pages (boards, players, tournaments, finished games): { $url }
    Keep the link among yourselves: anyone who has it can open them. An admin makes a new one with /web new.
web-link-new = { $name } made a new link for this community's pages; the old one no longer opens: { $url }
web-listed = Communities that show their pages to everyone:
web-public-usage = /web public <name> lists this community's pages on the site's front page under that name (up to 60 characters), for anyone to find; /web private takes them off again and makes a new link. Admins only.
web-public-on = { $name } made this community's pages public: the site's front page lists them as “{ $listed }”. /web private takes them off. { $url }
web-public-off = { $name } took this community's pages off the site's front page and made a new link; the old one no longer opens: { $url }
web-see-boards = All boards and games: { $url }
web-see-game = The game, card by card: { $url }
# The double-dummy analysis in the viewer.
web-dd = Double dummy, against the best card:
web-dd-cost = This card lost { $n }.
web-dd-summary = Lost to mistakes (double dummy)
web-col-lost = Lost
web-col-mistakes = Mistakes / cards
web-dd-about = Each card is compared with the best card its player had, with every hand open and everybody playing perfectly from there: a declarer's side counts card points (tricks in small zole), its opponents the points they keep from it.
web-dd-pending = The double-dummy analysis of this deal is being computed; reload the page in a moment.
web-dd-none = There is no double-dummy analysis for this deal (no play, or none for this game or contract).
# Tournaments.
web-see-tournament = Standings and seating, live: { $url }
web-tournaments = Tournaments
web-tournament-title = Tournament { $n }
web-tournament-line = Tournament { $n }, { $date }: { $what }
web-status-registration = entries open
web-status-on = being played
web-status-running = round { $round } of { $rounds } being played
web-status-paused = paused before round { $round } of { $rounds }
web-status-finished = finished
web-status-cancelled = cancelled
web-standings = Standings after round { $round } of { $rounds }
web-no-standings = No round has finished yet.
web-col-big = Big points
web-col-pm = +/−
web-col-rounds = Rounds
web-entered = Entered ({ $count }): { $names }
web-seating = Round { $round }
web-table-n = Table { $n }
web-table-playing = playing, deal { $deal }
web-table-waiting = about to start
web-table-closed = the game
web-refreshing = This page refreshes itself every 30 seconds while the tournament is on.
# A player's page.
web-player-rating = { $game }: rating { $rating } after { $count ->
    [one] { $count } game
   *[other] { $count } games
}
web-player-stats = { $game }: { $points ->
    [one] { $points } point
   *[other] { $points } points
}, { $count ->
    [one] { $count } game
   *[other] { $count } games
}, { $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
}, { $wins } won as declarer
web-rating-chart = { $game }: rating over time
web-no-history = No rated game yet.
web-recent = Recent games

## The live table (/play)
play-title = { $game }, table { $table }
play-deal = Deal { $deal }
play-your-turn = Your turn
play-turn-of = { $name } to play
play-spectator = You are watching: the table as the group sees it.
play-last-trick = Last trick, taken by { $name }
play-trick = On the table
play-result = Last deal
play-contract = Contract: { $contract }, { $name }
play-contract-open = Contract: { $contract }
play-bids = Bidding: { $bids }
play-announced = Announced: { $list }
play-deal-ended = Deal { $deal } is over
play-table-message = The table message
play-totals = Totals
play-connecting = Connecting…
play-lost = Connection lost: reconnecting…
play-over = This table is closed.
play-denied-title = This link does not open the table
play-forged = This link is not one the bot gave, or it was changed. Ask the bot for your link again (/play in the table's chat).
play-expired = This link has expired. Ask the bot for a new one (/play in the table's chat).
play-not-yours = This table is not open to you: only its players and the members of its chat can open it.
play-bad-request = The page sent something it should not. Reload the page; if it happens again, ask the bot for your link again (/play in the table's chat).
play-link = Your seat at the live table (a personal link: do not share it; valid for 24 hours): { $url }
play-link-watch = The live table, to watch (you have no seat at it; valid for 24 hours): { $url }
play-link-off = The live table is not set up on this bot (its operator gives --web-url).
play-link-closed-chat = Open a private chat with me and press Start first: your link is personal, so I send it only there.
play-open = Open the table
activity-choose = Several tables are open here: choose one.
activity-no-table = No table is open here. Start one with a command in this channel, then open the Activity again.
play-platform-unavailable = The bot cannot reach the chat platform just now: nothing was changed. Please try again in a moment.
