package shop.plus.mapper;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Update;
import shop.plus.model.MybatisPlusSkuCopyDO;

public interface MybatisPlusSkuCopyMapper extends BaseMapper<MybatisPlusSkuCopyDO> {
    @Update("UPDATE t_sku_copy SET stock = stock - #{n} WHERE id = #{id} AND stock >= #{n}")
    int deduct(@Param("id") Long id, @Param("n") int n);
}
