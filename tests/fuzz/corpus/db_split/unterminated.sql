SELECT 'unterminated;
