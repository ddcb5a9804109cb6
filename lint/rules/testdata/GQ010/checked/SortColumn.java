package shop.validation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import javax.validation.Constraint;
import javax.validation.Payload;

// A constraint whose validator accepts only the columns of a fixed list.
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = SortColumnValidator.class)
public @interface SortColumn {
    String message() default "unknown sort column";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
