package shop.validation;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import javax.validation.ConstraintValidator;
import javax.validation.ConstraintValidatorContext;

public class SortColumnValidator implements ConstraintValidator<SortColumn, String> {
    private static final Set<String> ALLOWED = new HashSet<>(Arrays.asList("id", "inventory", "status"));

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        return value == null || ALLOWED.contains(value);
    }
}
