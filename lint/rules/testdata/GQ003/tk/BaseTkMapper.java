package shop.tk.base;

import tk.mybatis.mapper.common.Mapper;
import tk.mybatis.mapper.common.MySqlMapper;

// The project's base of every mapper: tk.mybatis implements its methods.
public interface BaseTkMapper<T> extends Mapper<T>, MySqlMapper<T> {
}
