# Boards by period and season, and ratings.
top-rating-title = { $game }, rating:
top-rating-line = { $rank }. { $name } { $rating } ({ $games ->
    [one] one game
   *[other] { $games } games
})
top-period-day = { $game }, today:
top-period-week = { $game }, this week:
top-period-month = { $game }, this month:
top-period-season = { $game }, season { $n }:
top-period-all = { $game }, all time:
top-hint = Points by period: /top day, week, month, season (or season N) or all.
top-none-period = No deals have been counted here in that time.
top-no-season = There is no season { $n } here.
top-usage = /top shows the ratings; /top day, week, month, season [N] or all shows the points of that time.
stats-rating = { $game }: rating { $rating } ({ $change } with the last game)
season-started = { $name } has started season { $n }. The old one stays on the board: /top season { $prev }.
settings-computer-names = Computer players are called, by seat: { $names }
settings-computer-names-off = Computer players have their usual names again.
store-unavailable = The bot cannot reach its database just now: nothing was changed. Please try again in a moment.
press-try-again = That did not go through in time: nothing was changed. Please press again.
press-unsure = The database stopped answering while your move was being saved, so it is not known yet whether it was taken. You will be told here once it answers.
press-stood-later = { $name }: the database is back, and your move was taken after all.
press-lost-later = { $name }: the database is back, and your move was not taken. Please make it again.
