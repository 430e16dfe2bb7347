module {{name}}

go 1.21
