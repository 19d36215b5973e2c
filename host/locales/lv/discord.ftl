# Discord bota paša ziņas (stikis-discord) latviski.

discord-dm-closed = { $user }: tavas privātās ziņas ir slēgtas; savas kārtis redzēsi, nospiežot 🂠 zem galda.
discord-hand-turn = { $user }: tavs gājiens; savas kārtis redzēsi, nospiežot 🂠 zem galda.
discord-settings-help = Norādi turn_limit, auto_start un/vai computer_names.
discord-rules =
    Zole: 3–5 spēlētāji (katrā partijā spēlē trīs), 26 kārtis; trumpji ir visas dāmas, kalpi un kārava. Noteikumu kopas: lv, lv-galdins, rondo, catsatcards, zolite.
    Belote (bazārs, klasiskā, divatā) un coinche: 32 kārtis, trumpji J 9 A 10 K Q 8 7, divu spēlētāju komandas (divatā: divi spēlētāji).
    Polt līdz caram: 5–7 spēlētāji, 52 kārtis un džokers; kārtas no cara līdz poltam, cars nosauc trumpjus.
    Katras partijas dalīšana ir apliecināta ar tās sēklas SHA-256; spēles ierakstu (/record) pārbauda ar `stikis replay`.
discord-help = /zole, /belote, /coinche, /polt atver galdu (ja vēlies, savā pavedienā); pogas: pievienoties, pievienot datoru, sākt, iziet. Kārtis pienāk privātā ziņā; ja tās ir slēgtas, spied 🂠 zem galda. /top, /stats, /season, /tournament, /web (kopienas lapas: tabulas, spēles, turnīri), /lang, /record, /settings (administratoriem), /stop, /rules.
