package export

// ParquetRowGroup is parquetRowGroup, for the tests of package export_test.
const ParquetRowGroup = parquetRowGroup
