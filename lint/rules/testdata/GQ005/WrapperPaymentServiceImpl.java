package shop.service.impl;

import shop.mbg.TPaymentMapper;
import shop.model.TPayment;
import shop.service.WrapperPaymentService;

// The single implementation of its interface: a caller that holds the
// interface reaches these methods.
public class WrapperPaymentServiceImpl implements WrapperPaymentService {
    private TPaymentMapper paymentMapper;

    @Override
    public TPayment findById(long id) {
        return paymentMapper.selectByPrimaryKey(id);
    }

    @Override
    public int update(TPayment payment) {
        return paymentMapper.updateByPrimaryKeySelective(payment);
    }
}
