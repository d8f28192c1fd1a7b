package io.slotkeeper.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;

/**
 * Checks the rules of a {@link CrossFieldChecked} record that span several of its
 * properties, reporting each violation on the property it concerns so that the start-up
 * error names its full path.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = ConsistentValidator.class)
public @interface Consistent {

	/**
	 * Unused: each violation carries its own message.
	 * @return the message template
	 */
	String message() default "is inconsistent";

	/**
	 * Validation groups.
	 * @return the groups
	 */
	Class<?>[] groups() default {};

	/**
	 * Payload.
	 * @return the payload
	 */
	Class<? extends Payload>[] payload() default {};

}
