"""doubtspec: rules-verification harness for the board game Doubt Is Our Product."""
