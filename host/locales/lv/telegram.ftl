# Telegram bota paša ziņas (telegram-bot/); saimnieka ziņas ir main.ftl.

telegram-chat-closed = Spēlētāja { $name } privātā tērzēšana ar @{ $bot } ir slēgta. 🂠 parāda tavas kārtis; tavā gājienā tas arī pasaka, ko dara katra cipara poga zem galda ziņas. 💬 atver privāto tērzēšanu.
telegram-choice-none = Nav gājiena ar šādu numuru.
telegram-usage-lang = Tava valoda: /lang lv|en|ru · grupas valoda: /lang group lv|en|ru
telegram-usage-settings = Laiks gājienam: /settings turn SEKUNDES|off · sākt, kad galds pilns: /settings auto on|off · datorspēlētāju vārdi pa vietām: /settings names Jānis, Ilze|off
telegram-hands-group = Rokas: grupā, katra redzama tikai savam spēlētājam. /hands private: privātajās sarunās ar botu (administratoriem).
telegram-hands-private = Rokas: katra spēlētāja privātajā sarunā ar botu. /hands group: grupā, katra redzama tikai savam spēlētājam (administratoriem).
telegram-usage-hands = Kur rokas: /hands group|private (administratoriem; grupā).
