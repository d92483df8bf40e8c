export { ServiceError, ClientValidationError, isServiceError, type ServiceErrorKind, type ServiceErrorInit } from './serviceError';
export { errorMessage } from './errorMessage';
