SELECT 'it''s;' AS a; SELECT "x;y" FROM t;
-- a comment; here
SELECT 1 /* nested /* ; */ */;
