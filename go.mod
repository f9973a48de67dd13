module memsym

go 1.26
