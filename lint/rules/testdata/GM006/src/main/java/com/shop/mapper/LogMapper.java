package com.shop.mapper;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

@Mapper
public interface LogMapper {

    @Insert("INSERT INTO t_log VALUES (#{id}, #{msg})")
    int add(@Param("id") long id, @Param("msg") String msg);
}
