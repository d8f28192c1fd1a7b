package io.slotkeeper.config;

import java.util.List;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/**
 * Reports the {@link CrossFieldChecked#violations()} of a record, each on its own
 * property node.
 */
class ConsistentValidator implements ConstraintValidator<Consistent, CrossFieldChecked> {

	@Override
	public boolean isValid(CrossFieldChecked value, ConstraintValidatorContext context) {
		if (value == null) {
			return true;
		}
		List<CrossFieldChecked.Violation> violations = value.violations();
		if (violations.isEmpty()) {
			return true;
		}
		context.disableDefaultConstraintViolation();
		for (CrossFieldChecked.Violation violation : violations) {
			context.buildConstraintViolationWithTemplate(escape(violation.message()))
				.addPropertyNode(violation.property())
				.addConstraintViolation();
		}
		return false;
	}

	// Messages quote configured values; braces and dollars in them must not be read as
	// template expressions.
	private static String escape(String message) {
		return message.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
	}

}
