"""The lessons: learning DVONN by playing it, task by task, privately."""
