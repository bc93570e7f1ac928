package hatetris
