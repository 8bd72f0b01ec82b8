CREATE TABLE test1 (
    thedate TIMESTAMP,
    astring VARCHAR(200),
    anumber INTEGER
)CREATE TABLE test2  (
    thedate TIMESTAMP,
    astring VARCHAR(200),
    anumber INTEGER
);
CREATE TABLE test3 AS SELECT * FROM test1;
INSERT INTO test2 SELECT * FROM test1 WHERE ((anumber % 2) = 0);
DELETE FROM test3 WHERE ((anumber % 2) = 0);
DELETE FROM test3 WHERE ((anumber % 13) = 0);
CREATE TABLE test4 AS
 SELECT test1.thedate AS t1date,
        test2.thedate AS t2date,
        test1.astring AS t1string,
        test2.astring AS t2string,
        test1.anumber AS t1number,
        test2.anumber AS t2number
 FROM test1 JOIN test2 ON test1.anumber=test2.anumber;
UPDATE test3 SET thedate= WHERE ((anumber % 5) = 0);
DROP TABLE test4;
CREATE TABLE test4 AS SELECT * FROM test1;
DELETE FROM test4 WHERE ((anumber % 27) = 0);
VACUUM ANALYZE;
VACUUM FULL;
DROP TABLE test4;
DROP TABLE test3;
DROP TABLE test2;
VACUUM FULL;

