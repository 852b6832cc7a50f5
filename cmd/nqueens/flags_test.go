package main

import "flag"

var updateScripts = false

func init() {
	flag.BoolVar(&updateScripts, "update", false, "rewrite the expected outputs in testdata/script")
}
