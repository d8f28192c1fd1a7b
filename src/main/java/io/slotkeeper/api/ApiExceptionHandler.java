package io.slotkeeper.api;

import java.net.URI;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import io.slotkeeper.problem.ProblemException;

/**
 * The one place where every API error becomes an RFC 9457 problem
 * ({@code application/problem+json}): the domain's problems (through
 * {@link ProblemTypes}), Spring MVC's own (bad input, unknown path, wrong method) and the
 * security filter's 401 and 403, which reach here through the handler exception resolver.
 */
@RestControllerAdvice
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ApiExceptionHandler.class);

	// Broken JSON says where: a line and column for a syntax error, the field for a value
	// of the wrong kind.
	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		String where = "";
		Throwable cause = ex.getCause();
		if (cause instanceof JacksonException json) {
			TokenStreamLocation location = json.getLocation();
			if (json.getPath() != null && !json.getPath().isEmpty()) {
				where = " at field '" + json.getPath()
					.stream()
					.map((reference) -> (reference.getPropertyName() != null) ? reference.getPropertyName()
							: "[" + reference.getIndex() + "]")
					.collect(Collectors.joining(".")) + "'";
			}
			else if (location != null && location.getLineNr() > 0) {
				where = " at line " + location.getLineNr() + ", column " + location.getColumnNr();
			}
		}
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"The request body is not the JSON this call takes" + where + ".");
		return ResponseEntity.badRequest().headers(headers).body(problem);
	}

	// A path variable or query parameter that fails its constraint names itself and the
	// rule it broke.
	@Override
	protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		String broken = ex.getParameterValidationResults()
			.stream()
			.flatMap((result) -> result.getResolvableErrors()
				.stream()
				.map((error) -> parameterName(result.getMethodParameter()) + ": " + error.getDefaultMessage()))
			.collect(Collectors.joining("; "));
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status,
				broken.isEmpty() ? "A parameter of the request is not valid." : broken + ".");
		return ResponseEntity.status(status).headers(headers).body(problem);
	}

	private static String parameterName(MethodParameter parameter) {
		PathVariable path = parameter.getParameterAnnotation(PathVariable.class);
		if (path != null && !path.name().isEmpty()) {
			return path.name();
		}
		RequestParam query = parameter.getParameterAnnotation(RequestParam.class);
		if (query != null && !query.name().isEmpty()) {
			return query.name();
		}
		return (parameter.getParameterName() != null) ? parameter.getParameterName() : "a parameter";
	}

	@ExceptionHandler(ProblemException.class)
	ResponseEntity<ProblemDetail> handleProblem(ProblemException ex) {
		ProblemTypes.ProblemType type = ProblemTypes.of(ex.kind());
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(type.status(), ex.getMessage());
		problem.setType(type.type());
		problem.setTitle(type.title());
		ex.properties().forEach(problem::setProperty);
		return ResponseEntity.status(type.status()).body(problem);
	}

	@ExceptionHandler(AuthenticationException.class)
	ResponseEntity<ProblemDetail> handleAuthentication(AuthenticationException ex) {
		ProblemDetail problem = problem(HttpStatus.UNAUTHORIZED, ProblemTypes.UNAUTHORIZED, "Authentication required",
				"Send 'Authorization: Bearer <token>' with a token configured in slotkeeper.api.tokens, or your own "
						+ "cluster token where cluster sign-in is on (" + ex.getMessage() + ").");
		return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
			.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"slot-keeper\"")
			.body(problem);
	}

	@ExceptionHandler(AuthenticationServiceException.class)
	ResponseEntity<ProblemDetail> handleSignInUnavailable(AuthenticationServiceException ex) {
		ProblemDetail problem = problem(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.SIGN_IN_UNAVAILABLE,
				"Sign-in unavailable",
				"The token could not be checked now: " + ex.getMessage() + ". Configured static tokens still work.");
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "5").body(problem);
	}

	@ExceptionHandler(AccessDeniedException.class)
	ResponseEntity<ProblemDetail> handleAccessDenied(AccessDeniedException ex) {
		ProblemDetail problem = problem(HttpStatus.FORBIDDEN, ProblemTypes.FORBIDDEN, "Not allowed",
				"This token may not do this: reads need the viewer role, changes the operator role (a cluster user: get, or"
						+ " update and delete, on slot-keeper's resource in its namespace).");
		return ResponseEntity.status(HttpStatus.FORBIDDEN).body(problem);
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<ProblemDetail> handleUnexpected(Exception ex) {
		logger.error("Unexpected error in an API call", ex);
		ProblemDetail problem = problem(HttpStatus.INTERNAL_SERVER_ERROR, ProblemTypes.INTERNAL_ERROR, "Internal error",
				"slot-keeper failed unexpectedly; its log has the cause.");
		return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(problem);
	}

	private static ProblemDetail problem(HttpStatus status, String slug, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(ProblemTypes.TYPE_PREFIX + slug));
		problem.setTitle(title);
		return problem;
	}

}
