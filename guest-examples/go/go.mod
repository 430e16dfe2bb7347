module example.com/bashguard

go 1.21
