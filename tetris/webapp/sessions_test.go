package webapp

import "github.com/yomi-ai/yomi/tetris/bot"

var sessionsTestOptions = bot.Options{Threads: 1, Reserve: -1}
