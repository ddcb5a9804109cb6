package shop.service;

import shop.model.TPayment;

public interface WrapperPaymentService {
    TPayment findById(long id);

    int update(TPayment payment);
}
