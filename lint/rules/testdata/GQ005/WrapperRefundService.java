package shop.service;

import shop.mbg.TPaymentMapper;
import shop.model.TPayment;

// An interface with two implementations: guard does not pick one.
public interface WrapperRefundService {
    TPayment findById(long id);

    int update(TPayment payment);
}

class WrapperRefundServiceLive implements WrapperRefundService {
    private TPaymentMapper paymentMapper;

    public TPayment findById(long id) {
        return paymentMapper.selectByPrimaryKey(id);
    }

    public int update(TPayment payment) {
        return paymentMapper.updateByPrimaryKeySelective(payment);
    }
}

class WrapperRefundServiceArchive implements WrapperRefundService {
    private TPaymentMapper paymentMapper;

    public TPayment findById(long id) {
        return paymentMapper.selectByPrimaryKey(id);
    }

    public int update(TPayment payment) {
        return 0;
    }
}
