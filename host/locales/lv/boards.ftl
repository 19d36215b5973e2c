# Tabulas pa laika posmiem un sezonām, un reitingi.
top-rating-title = { $game }, reitings:
top-rating-line = { $rank }. { $name } { $rating } ({ $games ->
    [zero] { $games } spēļu
    [one] { $games } spēle
   *[other] { $games } spēles
})
top-period-day = { $game }, šodien:
top-period-week = { $game }, šonedēļ:
top-period-month = { $game }, šomēnes:
top-period-season = { $game }, { $n }. sezona:
top-period-all = { $game }, visu laiku:
top-hint = Punkti pa laika posmiem: /top day, week, month, season (vai season N) vai all.
top-none-period = Šajā laikā šeit nav ieskaitīts neviens dalījums.
top-no-season = Šeit nav { $n }. sezonas.
top-usage = /top rāda reitingus; /top day, week, month, season [N] vai all rāda tā laika punktus.
stats-rating = { $game }: reitings { $rating } ({ $change } pēc pēdējās spēles)
season-started = { $name } sāka { $n }. sezonu. Vecā paliek tabulā: /top season { $prev }.
settings-computer-names = Datorspēlētāju vārdi pa vietām: { $names }
settings-computer-names-off = Datorspēlētājiem atkal ir parastie vārdi.
store-unavailable = Bots šobrīd nevar sasniegt savu datubāzi: nekas netika mainīts. Lūdzu, mēģini vēlreiz pēc brīža.
press-try-again = Tas neizdevās laikā: nekas netika mainīts. Lūdzu, spied vēlreiz.
press-unsure = Datubāze pārstāja atbildēt, kamēr tavs gājiens tika saglabāts, tāpēc vēl nav zināms, vai tas tika pieņemts. Tev to pateiks šeit, tiklīdz tā atbildēs.
press-stood-later = { $name }: datubāze ir atpakaļ, un tavs gājiens tomēr tika pieņemts.
press-lost-later = { $name }: datubāze ir atpakaļ, un tavs gājiens netika pieņemts. Lūdzu, izdari to vēlreiz.
