seqlintNoSuchFunction();
