package shop.validation;

import javax.validation.Constraint;

// A constraint whose validator lets any text through but an empty one.
@Constraint(validatedBy = LooseSortValidator.class)
public @interface LooseSort {
    String message() default "sort required";
}
