// Package mybatisxml reads MyBatis mapper XML: each statement element,
// its dynamic SQL (<if>, <choose>, <foreach>, <set>, <trim>, <include>)
// rendered variant by variant, #{…} as placeholders and ${…} recorded,
// MyBatis Generator's Example clauses and MyBatis-Plus's wrapper segments
// read for what they are.
package mybatisxml
